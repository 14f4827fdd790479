package test

p if {
	containers := {c | c := input.containers[_]}
	init_containers := {c | c := input.init_containers[_]}
	every x in containers | init_containers {
		startswith(x.image, "acmecorp.com/")
	}
}
