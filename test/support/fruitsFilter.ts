// The data-filter policy of @open-policy-agent/opa's README (its `fruits` example): unknowns and
// mask rule from the `compile:` annotation.
export const FRUITS_FILTER_POLICY = `package filters

# METADATA
# scope: document
# compile:
#   unknowns: ["input.fruits"]
#   mask_rule: masks
include if input.fruits.colour in input.fav_colours

masks.fruits.supplier.replace.value := "<supplier>"
`;
