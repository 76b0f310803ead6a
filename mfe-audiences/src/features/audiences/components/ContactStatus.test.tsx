import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import { formatDateTime } from '@mailroom/ui';
import { describe, expect, it } from 'vitest';
import { contact } from '../../../test/fake-api';
import { ContactStatus } from './ContactStatus';

describe('ContactStatus', () => {
  it('flags an erased address imported again with the date it was erased (issue 24)', () => {
    const erasedAt = '2024-05-06T07:08:09.000Z';
    render(
      <FluentProvider theme={webLightTheme}>
        <ContactStatus contact={{ ...contact(1, 'zoe@example.net', {}, null, 'ERASED'), erasedAt }} />
      </FluentProvider>,
    );
    expect(screen.getByText(`Suppressed (erased): this address was erased on ${formatDateTime(erasedAt)}`)).toBeTruthy();
  });

  it('says the reason of any other suppression as before', () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <ContactStatus contact={contact(2, 'quit@example.net', {}, null, 'UNSUBSCRIBE')} />
      </FluentProvider>,
    );
    expect(screen.getByText('Suppressed (unsubscribed)')).toBeTruthy();
  });

  it('says a contact that left this audience in the preference centre is unsubscribed from it (issue 25)', () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <ContactStatus contact={{ ...contact(3, 'left@example.net', {}, null, null), unsubscribedAt: '2026-11-28T04:00:00.000Z' }} />
      </FluentProvider>,
    );
    expect(screen.getByText('Unsubscribed from this audience')).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Valid' })).toBeNull();
  });
});
