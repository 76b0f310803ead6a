/**
 * Per-domain send limits (issue 28; DOMAIN_RATE_LIMITS, docs/decisions/sending.md, "Domain limits"):
 * the most mails a second every worker together sends to one receiving domain. A rule names a domain
 * (`gmail.com=50`) or every domain under a suffix (`*.edu=10`: harvard.edu and mit.edu get 10 a second
 * each, since each has mail servers of its own to protect; `edu` itself is not matched). An exact rule
 * wins over a wildcard, and a longer suffix over a shorter one.
 */

export interface DomainLimit {
  /** `gmail.com`, or `*.edu` for every domain ending in `.edu`. */
  pattern: string;
  /** Mails a second, above 0. */
  perSecond: number;
}

const LABELS = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/** Parses `gmail.com=50,yahoo.com=20,*.edu=10`; throws an Error whose message says what is wrong. */
export function parseDomainLimits(text: string): DomainLimit[] {
  const limits: DomainLimit[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [rawPattern = '', rawRate, ...rest] = entry.split('=').map((part) => part.trim());
    const pattern = rawPattern.toLowerCase();
    const name = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
    if (rawRate === undefined || rest.length > 0 || !LABELS.test(name) || (!pattern.startsWith('*.') && !name.includes('.')))
      throw new Error(`"${entry}" is not domain=rate (for example gmail.com=50 or *.edu=10)`);
    const perSecond = Number(rawRate);
    if (!/^\d+(\.\d+)?$/.test(rawRate) || !(perSecond > 0))
      throw new Error(`"${entry}": the rate must be a number of mails a second above 0`);
    if (limits.some((limit) => limit.pattern === pattern)) throw new Error(`"${pattern}" is given twice`);
    limits.push({ pattern, perSecond });
  }
  if (limits.length === 0) throw new Error('must list at least one domain=rate');
  return limits;
}

/** A job's receiving domain: after the address's last '@', lower case (as recipient_domain() in SQL). */
export function recipientDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** The limit of one receiving domain, or undefined when no rule names it. */
export function domainLimiter(limits: readonly DomainLimit[]): (domain: string) => number | undefined {
  const exact = new Map(limits.filter((l) => !l.pattern.startsWith('*.')).map((l) => [l.pattern, l.perSecond]));
  // Longest suffix first: `*.ac.uk` before `*.uk`.
  const wildcards = limits
    .filter((l) => l.pattern.startsWith('*.'))
    .map((l) => ({ suffix: l.pattern.slice(1), perSecond: l.perSecond }))
    .sort((a, b) => b.suffix.length - a.suffix.length);
  const cache = new Map<string, number | undefined>();
  return (domain) => {
    if (cache.has(domain)) return cache.get(domain);
    const found = exact.get(domain) ?? wildcards.find((w) => domain.endsWith(w.suffix))?.perSecond;
    if (cache.size < 10_000) cache.set(domain, found);
    return found;
  };
}
