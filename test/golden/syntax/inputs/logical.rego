package golden.logical

import future.keywords.and
import future.keywords.not
import future.keywords.or

p if {
	input.a and input.b or input.c
}

q if {
	not (input.x or input.y) and {input.z; input.w}
}

r if {
	x and (y or z) with input as {}
}
