# METADATA
# scope: package
# description: The Rego test suite
package testing

# METADATA
# scope: rule
# title: Testing annotations
# authors:
#   - name: The OPA contributors
p := "foo" if {
	false
}

# METADATA
# scope: rule
# title: Another annotation
p := x if {
	x := rego.metadata.rule()
}
