package golden.v0

p[x] {
	x := input.xs[_]
}

q {
	true
}

r[k] = v {
	some k
	v := input.obj[k]
}

default s = 1

f(x) = y {
	y := x
}
