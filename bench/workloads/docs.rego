# A partial set over data records: the ids of the records the user owns, and of the public ones.
package docs

allowed_docs contains d.id if {
	some d in data.records
	d.owner == input.user
}

allowed_docs contains d.id if {
	some d in data.records
	d.public == true
}
