# Gatekeeper-style admission checks over a pod: every container's image comes from an allowed
# registry, and every container sets cpu and memory limits. One message per violation.
package k8s.pod

violation contains {"msg": msg} if {
	some c in input.review.object.spec.containers
	not image_allowed(c)
	msg := concat("", ["container ", c.name, " uses image ", c.image, " from a registry that is not allowed"])
}

violation contains {"msg": msg} if {
	some c in input.review.object.spec.containers
	some kind in ["cpu", "memory"]
	not has_limit(c, kind)
	msg := concat("", ["container ", c.name, " has no ", kind, " limit"])
}

image_allowed(c) if {
	some registry in data.allowed_registries
	startswith(c.image, registry)
}

has_limit(c, kind) if c.resources.limits[kind]
