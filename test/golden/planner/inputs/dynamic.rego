# query: data.dyn[input.pkg].allow = x
package dyn.a

allow := true

package dyn.b

allow := false
