# query: data.fns.size(input.n, s); d := data.fns.double(3)
package fns

size(n) := "large" if {
	n > 100
} else := "small" if {
	n > 10
} else := "tiny"

double(x) := x * 2
