/** The contact fields the editor offers as merge tags, written {{field}} (docs/product.md, Routes and screens, Template editor). */
export const MERGE_TAG_FIELDS = [
  'email',
  'address',
  'username',
  'userName',
  'fullName',
  'fullname',
  'location',
  'birthday',
  'grade',
  'phone',
  'country',
] as const;

export interface MergeTag {
  name: string;
  value: string;
}

/** In the editor's shape: one entry per field, keyed by the field. */
export const MERGE_TAGS: Record<string, MergeTag> = Object.fromEntries(
  MERGE_TAG_FIELDS.map((field) => [field, { name: field, value: `{{${field}}}` }]),
);
