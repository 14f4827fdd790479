# entrypoints: mock/p
package mock

f(x) := x + 1

g(x) := x * 10

q := f(1)

p if {
	q == 10 with f as g with input.x as 1
	count(input.items) == 42 with count as 42
}
