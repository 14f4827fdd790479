package test

a := input.a

b := input.b

p := x if {
	x := $"foo {a} {b}" with input as {"a": 42} with input as {"b": "bar"}
}
