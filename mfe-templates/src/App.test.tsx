import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { describe, expect, it, vi } from 'vitest';
import App from './App';

describe('the templates remote', () => {
  it('renders its area title under the base path the shell gives', () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <MemoryRouter initialEntries={['/templates']}>
          <App
            basePath="/templates"
            apiBaseUrl=""
            getAccessToken={async () => 'token'}
            notify={vi.fn()}
            profile={{ firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' }}
            theme="light"
          />
        </MemoryRouter>
      </FluentProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Templates' })).toBeTruthy();
  });
});
