import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { describe, expect, it, vi } from 'vitest';
import App from './App';

describe('the reports remote', () => {
  it('renders its area title under the base path the shell gives', () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <MemoryRouter initialEntries={['/campaigns/reports']}>
          <App
            basePath="/campaigns/reports"
            apiBaseUrl=""
            getAccessToken={async () => 'token'}
            notify={vi.fn()}
            profile={{ firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' }}
            theme="light"
          />
        </MemoryRouter>
      </FluentProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Campaign report' })).toBeTruthy();
  });
});
