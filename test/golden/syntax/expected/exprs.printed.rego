package golden.exprs

p if {
	x := input.a + 2 * 3 - (4 - 1)
	y = [1, 2, 3][_]
	z := {k: v | some k, v in input.obj; v > 0}
	not input.blocked
	every item in input.items {
		item.ok == true
	}
	count({a | a := input.set[_]}) >= 1
	1 in input.list
	"k", "v" in input.pairs
	input.x with input as {"x": 1} with data.lib.f as 2
	w := x | y & z
}

q := [x | some x in numbers.range(1, 3); x % 2 == 1]
