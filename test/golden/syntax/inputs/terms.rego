package golden.terms

numbers := [0, -1, 1.5, 1e6, 2.5E-3, 12345678901234567890123, -0.0]

strings := ["plain", "esc\"aped\n\t\u00e9", `raw\n`, ""]

collections := {
	"array": [null, true, false],
	"set": {1, 2},
	"empty_set": set(),
	"empty_object": {},
	"nested": {"a": {"b": [{"c": 1}]}},
}

template := $"hello {input.name}, you are {input.age} years old; \{literal}"

multiline := $`line one {input.x}
line two`
