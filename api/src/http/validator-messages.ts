/**
 * The contract validator's findings as sentences a member can read. The screens show an error's
 * message in their error boxes, and AJV's wording ('request/body/at must match format "date-time"',
 * 'unsupported media type undefined') is written for developers. Each finding keeps the name of the
 * field it is about, as the contract spells it; `path` and `errorCode` stay as the validator gave
 * them, for programs.
 */

export interface ValidatorFinding {
  path?: string;
  message: string;
  errorCode?: string;
}

/** Where a finding's path points (the validator's data: body, query, params, headers). */
function subjectOf(path: string | undefined): string | undefined {
  const [location, ...rest] = (path ?? '').split('/').slice(1);
  const name = rest.map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
  switch (location) {
    case 'body':
      return name ? `The field "${name}"` : "The request's body";
    case 'query':
      return `The parameter "${name}"`;
    case 'params':
      return `The "${name}" in the address`;
    case 'headers':
      return `The header "${name}"`;
    default:
      return undefined;
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'empty (null)',
};

const FORMAT_NAMES: Record<string, string> = {
  'date-time': 'a real date and time with its time zone, such as 2027-03-01T09:30:00Z',
  date: 'a real date, such as 2027-03-01',
  email: 'an email address',
  uri: 'a web address',
  url: 'a web address',
  uuid: 'an identifier such as 123e4567-e89b-12d3-a456-426614174000',
  int32: 'a whole number that is not too large',
  int64: 'a whole number that is not too large',
};

const plural = (count: string, one: string, many: string) => `${count} ${count === '1' ? one : many}`;

/** What the finding says of its subject, from AJV's (or the validator's) English message. */
const PREDICATES: [RegExp, (...groups: string[]) => string][] = [
  [/^must have required property /, () => 'is required'],
  [/^must NOT have additional properties/, () => 'is not one this request takes'],
  [/^Unknown query parameter /, () => 'is not one this request takes'],
  [/^Empty value found for query parameter /, () => 'must not be empty'],
  [/^must match format "([^"]+)"/, (format) => `must be ${FORMAT_NAMES[format!] ?? `in the ${format} format`}`],
  [
    /^must be equal to one of the allowed values(?:: (.+))?$/,
    (values) => (values ? `must be one of: ${values}` : 'is not one of the values it takes'),
  ],
  [/^must NOT have fewer than 1 characters$/, () => 'must not be empty'],
  [/^must NOT have fewer than (\d+) characters$/, (count) => `must have at least ${count} characters`],
  [/^must NOT have more than (\d+) characters$/, (count) => `must have at most ${plural(count!, 'character', 'characters')}`],
  [/^must NOT have fewer than (\d+) items$/, (count) => `must list at least ${plural(count!, 'item', 'items')}`],
  [/^must NOT have more than (\d+) items$/, (count) => `must list at most ${plural(count!, 'item', 'items')}`],
  [/^must NOT have fewer than (\d+) properties$/, (count) => `must have at least ${plural(count!, 'field', 'fields')}`],
  [/^must NOT have more than (\d+) properties$/, (count) => `must have at most ${plural(count!, 'field', 'fields')}`],
  [/^must be >= (\S+)$/, (limit) => `must be at least ${limit}`],
  [/^must be <= (\S+)$/, (limit) => `must be at most ${limit}`],
  [/^must be > (\S+)$/, (limit) => `must be more than ${limit}`],
  [/^must be < (\S+)$/, (limit) => `must be less than ${limit}`],
  [/^must be multiple of (\S+)$/, (step) => `must be a multiple of ${step}`],
  [/^must be a finite number$/, () => 'must be a number'],
  [/^must match pattern /, () => 'is not written in the form it takes'],
  [/^must NOT have duplicate items/, () => 'must not list the same item twice'],
  [/^must match (exactly one|a) schema in (oneOf|anyOf)$/, () => 'is not in a form this request takes'],
  [/^must be equal to constant$/, () => 'is not the value this request takes'],
  [
    /^must be ([a-z]+(?:,[a-z]+)*)$/,
    (types) =>
      `must be ${types!
        .split(',')
        .map((type) => TYPE_NAMES[type] ?? type)
        .join(' or ')}`,
  ],
];

/** The sentence for one finding of the validator; a finding it cannot place is kept as it was. */
export function findingSentence({ path, message }: ValidatorFinding): string {
  const subject = subjectOf(path);
  if (!subject) return message;
  for (const [pattern, predicate] of PREDICATES) {
    const match = pattern.exec(message);
    if (match) return `${subject} ${predicate(...match.slice(1))}.`;
  }
  return `${subject} ${message.replace(/\.$/, '')}.`;
}

/**
 * The sentence for a request whose body has a media type the operation does not take (or none):
 * what it takes, when the operation is known.
 */
export function mediaTypeSentence(contentType: string | undefined, accepted: string[]): string {
  const takes = accepted.length > 0 ? `, sent as ${accepted.join(' or ')}` : '';
  if (!contentType) return `This request needs a body${takes}.`;
  return `This request does not take a body of type ${contentType}${takes ? `; it needs one${takes}` : ''}.`;
}

/** The validator's answer to a method the address does not take ('POST method not allowed'). */
export function methodSentence(message: string): string {
  const method = /^(\w+) method not allowed$/.exec(message)?.[1];
  return method ? `This address does not take ${method} requests.` : message;
}
