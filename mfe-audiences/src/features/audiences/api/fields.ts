import type { Audience, AudienceFieldDefinition } from '@mailroom/api-client';

/**
 * The fields the 'Add contact' form offers. The call that lists an audience's fields with their types
 * (GET /api/audiences/{id}/fields) is the fields screen's, built beside this one; until it is here the
 * form offers the audience's headers (each field's key, in order) as text, and the API checks every
 * value against the field's real type all the same (a number or a date typed as text is read as a
 * person writes it). Switch this to that call when both are in.
 */
export function audienceFieldsOf(audience: Audience): AudienceFieldDefinition[] {
  return audience.headers.map((key, index) => ({
    key,
    label: key,
    type: 'TEXT',
    options: null,
    required: false,
    editableByPerson: false,
    position: index + 1,
  }));
}
