/** regoc's version (package.json's; a test keeps them equal): the `version` label of decision logs and status. */
export const REGOC_VERSION = "0.1.0";
