package test

p := y if {
	y := "v0"
	not data.test.q[y]
}

q contains x if {
	data.b[x] = v
}
