package golden.v0

p contains x if {
	x := input.xs[_]
}

q if {
	true
}

r[k] = v if {
	some k
	v := input.obj[k]
}

default s = 1

f(x) = y if {
	y := x
}
