package ex

indexed if {
	data.a[0] = 0
} else := 2 if {
	data.a[0] = 1
} else := 3 if {
	data.a[0] = 1
}

indexed if {
	data.a[0] = 1
	data.a[2] = 2
} else if {
	false
} else := 2 if {
	data.a[0] = x
	x = 1
	data.a[2] = 3
}
