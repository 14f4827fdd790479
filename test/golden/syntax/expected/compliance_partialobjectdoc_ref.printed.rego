package generated

p.q[k] := v if {
	k := ["foo", "bar"][v]
}

p.baz := 2

q if {
	x := "bar"
	y := "q"
	p[y][x] == 1
}
