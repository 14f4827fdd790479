# entrypoints: ev/ok
package ev

ok if {
	every x in input.xs {
		x > 0
	}
	squares := [y | some v in input.xs; y := v * v]
	count({k: v | some k, v in input.obj}) == count(squares)
}
