package test

default p.q.r.f(x) := 100

p.q.r.f(x) := x if {
	x == 2
}

foo if {
	p.q.r.f(3) == 100
}
