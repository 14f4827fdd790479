// Certificate chain verification following Go's (*x509.Certificate).Verify, which OPA calls with
// the first certificate as the only root, the middle ones as intermediates and the last as leaf.
import { nodeCrypto } from "../node.js";
import type { Certificate } from "./x509.js";

export interface VerifyOptions {
  /** Verification time in ms since the epoch. */
  now: number;
  dnsName?: string;
  /** Go ExtKeyUsage values; empty means ServerAuth. */
  keyUsages: number[];
  maxConstraintComparisons?: number;
}

const KEY_USAGE_CERT_SIGN = 1 << 5;
const EKU_ANY = 0;
const EKU_SERVER_AUTH = 1;

/** Go's checkSignature for certificates (SHA-1 and MD5 based signatures are insecure). */
export function checkSignature(child: Certificate, parent: Certificate): boolean {
  if ((parent.version === 3 && !parent.basicConstraintsValid) || (parent.basicConstraintsValid && !parent.isCA)) return false;
  if (parent.keyUsage !== 0 && (parent.keyUsage & KEY_USAGE_CERT_SIGN) === 0) return false;
  const key = parent.publicKey;
  if (parent.publicKeyAlgorithm === 0 || !key) return false;
  const alg = child.sigAlg;
  if (alg.hash === "sha1" || alg.hash === "md5" || alg.hash === "md2") return false;
  if (parent.rsaBits !== undefined && parent.rsaBits < 1024) return false;
  const keyType = key.asymmetricKeyType;
  const crypto = nodeCrypto();
  const { constants } = crypto;
  try {
    switch (alg.kind) {
      case "rsa":
        return keyType === "rsa" && crypto.verify(alg.hash!, child.rawTBS, { key, padding: constants.RSA_PKCS1_PADDING }, child.signature);
      case "pss":
        return (
          keyType === "rsa" &&
          crypto.verify(alg.hash!, child.rawTBS, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, child.signature)
        );
      case "ecdsa":
        return keyType === "ec" && crypto.verify(alg.hash!, child.rawTBS, { key, dsaEncoding: "der" }, child.signature);
      case "ed25519":
        return keyType === "ed25519" && crypto.verify(null, child.rawTBS, key, child.signature);
      default:
        return false;
    }
  } catch {
    return false;
  }
}

type CertType = "leaf" | "intermediate" | "root";

/** Go's isValid: critical extensions, issuer/subject chaining, validity period, CA and path length. */
function isValid(c: Certificate, type: CertType, chain: Certificate[], opts: VerifyOptions): boolean {
  if (c.unhandledCritical.length > 0) return false;
  if (chain.length > 0 && !chain[chain.length - 1]!.rawIssuer.equals(c.rawSubject)) return false;
  if (opts.now < c.notBefore || opts.now > c.notAfter) return false;
  if (type !== "leaf" && !nameConstraintsAllow(c, chain[0])) return false;
  if (type === "intermediate" && (!c.basicConstraintsValid || !c.isCA)) return false;
  if (c.basicConstraintsValid && c.maxPathLen >= 0 && chain.length - 1 > c.maxPathLen) return false;
  return true;
}

function domainWithin(name: string, constraint: string): boolean {
  const n = name.toLowerCase();
  const c = constraint.toLowerCase();
  if (c === "") return true;
  if (c.startsWith(".")) return n.endsWith(c);
  return n === c || n.endsWith(`.${c}`);
}

/** Name constraints of a CA over the leaf's DNS names (the constraint type Go checks most often). */
function nameConstraintsAllow(ca: Certificate, leaf: Certificate | undefined): boolean {
  if (!leaf) return true;
  for (const name of leaf.dnsNames) {
    if (ca.excludedDNSDomains.some((d) => domainWithin(name, d))) return false;
    if (ca.permittedDNSDomains.length > 0 && !ca.permittedDNSDomains.some((d) => domainWithin(name, d))) return false;
  }
  return true;
}

/** Candidates whose subject is the child's issuer, those with a matching key id first (Go's order). */
function potentialParents(child: Certificate, pool: Certificate[]): Certificate[] {
  const matches = pool.filter((p) => p.rawSubject.equals(child.rawIssuer));
  const rank = (p: Certificate): number => {
    if (!child.authorityKeyId || !p.subjectKeyId) return 1;
    return child.authorityKeyId.equals(p.subjectKeyId) ? 0 : 2;
  };
  return matches.sort((a, b) => rank(a) - rank(b));
}

function buildChains(chain: Certificate[], roots: Certificate[], intermediates: Certificate[], opts: VerifyOptions, budget: { sigChecks: number }): Certificate[][] {
  const current = chain[chain.length - 1]!;
  const out: Certificate[][] = [];
  const consider = (type: CertType, candidate: Certificate) => {
    if (chain.some((c) => c.raw.equals(candidate.raw))) return;
    if (++budget.sigChecks > 100) return;
    if (!checkSignature(current, candidate)) return;
    if (!isValid(candidate, type, chain, opts)) return;
    if (type === "root") out.push([...chain, candidate]);
    else out.push(...buildChains([...chain, candidate], roots, intermediates, opts, budget));
  };
  for (const r of potentialParents(current, roots)) consider("root", r);
  for (const i of potentialParents(current, intermediates)) consider("intermediate", i);
  return out;
}

/** Go's checkChainForKeyUsage. */
function chainAllowsUsages(chain: Certificate[], usages: number[]): boolean {
  const remaining = [...usages];
  let left = remaining.length;
  for (let i = chain.length - 1; i >= 0; i--) {
    const c = chain[i]!;
    if (c.extKeyUsage.length === 0 && c.unknownExtKeyUsage.length === 0) continue;
    if (c.extKeyUsage.includes(EKU_ANY)) continue;
    for (let j = 0; j < remaining.length; j++) {
      if (remaining[j] === -1) continue;
      if (c.extKeyUsage.includes(remaining[j]!)) continue;
      remaining[j] = -1;
      if (--left === 0) return false;
    }
  }
  return true;
}

/** Go's VerifyHostname for DNS names and IP literals. */
function hostnameMatches(leaf: Certificate, host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  if (/^[\d.]+$/.test(h) || h.includes(":")) return leaf.ipAddresses.includes(h);
  const name = host.toLowerCase().replace(/\.$/, "");
  return leaf.dnsNames.some((pattern) => {
    const p = pattern.toLowerCase().replace(/\.$/, "");
    if (p.startsWith("*.")) {
      const dot = name.indexOf(".");
      return dot > 0 && name.slice(dot) === p.slice(1);
    }
    return p === name;
  });
}

/** Verifies certs (root first, leaf last); returns the first chain (leaf first) or undefined. */
export function verifyChain(certs: Certificate[], opts: VerifyOptions): Certificate[] | undefined {
  if (certs.length < 2) return undefined;
  const roots = [certs[0]!];
  const intermediates = certs.slice(1, -1);
  const leaf = certs[certs.length - 1]!;
  if (!isValid(leaf, "leaf", [], opts)) return undefined;
  if (opts.dnsName && !hostnameMatches(leaf, opts.dnsName)) return undefined;
  const candidates = roots.some((r) => r.raw.equals(leaf.raw)) ? [[leaf]] : buildChains([leaf], roots, intermediates, opts, { sigChecks: 0 });
  if (candidates.length === 0) return undefined;
  const usages = opts.keyUsages.length === 0 ? [EKU_SERVER_AUTH] : opts.keyUsages;
  if (usages.includes(EKU_ANY)) return candidates[0];
  return candidates.find((chain) => chainAllowsUsages(chain, usages));
}
