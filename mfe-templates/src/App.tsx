import { lazy, Suspense } from 'react';
import type { RemoteProps } from '@mailroom/mf-contract';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { HOME_PATH } from '@mailroom/mf-contract/remotes';
import { Spinner } from '@fluentui/react-components';
import { Navigate, Route, Routes } from 'react-router-dom';
import { TemplatesListRoute } from './features/templates/routes/TemplatesListRoute';

// The list loads with the remote; the editor (react-email-editor, the preview renderer) is fetched
// only when a template is opened, so the first view stays small.
const TemplateEditorRoute = lazy(() =>
  import('./features/template-editor/routes/TemplateEditorRoute').then((module) => ({ default: module.TemplateEditorRoute })),
);

/** The templates remote: its routes relative to where the shell mounts it (/templates). */
export default function App(props: RemoteProps) {
  return (
    <RemoteProvider value={props}>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <Routes>
          <Route index element={<TemplatesListRoute />} />
          <Route path="edit/:id" element={<TemplateEditorRoute />} />
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Routes>
      </Suspense>
    </RemoteProvider>
  );
}
