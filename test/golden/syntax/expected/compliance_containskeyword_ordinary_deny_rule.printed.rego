package test

p contains msg if {
	msg := "nono"
}

p contains msg if {
	msg := "nonono"
}
