# query: data.docs.users = u; data.docs.by_id = b
package docs

users contains name if {
	some u in input.users
	name := u.name
}

by_id[u.id] := u.name if {
	some u in input.users
}
