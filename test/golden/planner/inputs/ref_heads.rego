# query: data.refs.p.q[i].s = x
package refs

p.q[r].s := 1 if r := "foo"

p.q[r].s := 2 if r := "bar"

groups[g] contains m if {
	some m in input.members
	g := m.group
}
