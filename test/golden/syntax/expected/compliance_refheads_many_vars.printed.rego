package test

p[a][b][c][d][e] if {
	some a in numbers.range(1, 5)
	some b in numbers.range(1, 5)
	some c in numbers.range(1, 5)
	some d in numbers.range(1, 5)
	some e in numbers.range(1, 5)
	a + b + c + d + e == 24
}
