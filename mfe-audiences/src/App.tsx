import { lazy, Suspense } from 'react';
import type { RemoteProps } from '@mailroom/mf-contract';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { EXTRA_AREAS, HOME_PATH } from '@mailroom/mf-contract/remotes';
import { Spinner } from '@fluentui/react-components';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AudiencesListRoute } from './features/audiences/routes/AudiencesListRoute';

// The list is the area's landing page and loads with the remote; the detail page and the import
// wizard (react-dropzone, steppers) are fetched when first opened, which keeps the first view small.
const AudienceDetailRoute = lazy(() =>
  import('./features/audiences/routes/AudienceDetailRoute').then((module) => ({ default: module.AudienceDetailRoute })),
);
const SuppressionsRoute = lazy(() =>
  import('./features/suppressions/routes/SuppressionsRoute').then((module) => ({ default: module.SuppressionsRoute })),
);
const FieldsRoute = lazy(() => import('./features/audiences/routes/FieldsRoute').then((module) => ({ default: module.FieldsRoute })));
const FormsRoute = lazy(() => import('./features/forms/routes/FormsRoute').then((module) => ({ default: module.FormsRoute })));
const SegmentsRoute = lazy(() => import('./features/segments/routes/SegmentsRoute').then((module) => ({ default: module.SegmentsRoute })));
// The builder (react-querybuilder) is fetched only when a segment is opened.
const SegmentEditorRoute = lazy(() =>
  import('./features/segments/routes/SegmentEditorRoute').then((module) => ({ default: module.SegmentEditorRoute })),
);
const PeopleRoute = lazy(() => import('./features/people/routes/PeopleRoute').then((module) => ({ default: module.PeopleRoute })));
const ImportContactsRoute = lazy(() =>
  import('./features/import-contacts/routes/ImportContactsRoute').then((module) => ({ default: module.ImportContactsRoute })),
);

/**
 * The audiences remote: its routes relative to where the shell mounts it (/audiences), and one person
 * across audiences when the shell mounts it at /people (EXTRA_AREAS).
 */
export default function App(props: RemoteProps) {
  if (props.basePath === EXTRA_AREAS.people.basePath)
    return (
      <RemoteProvider value={props}>
        <Suspense fallback={<Spinner label="Loading..." />}>
          <Routes>
            <Route index element={<PeopleRoute />} />
            <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
          </Routes>
        </Suspense>
      </RemoteProvider>
    );
  return (
    <RemoteProvider value={props}>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <Routes>
          <Route index element={<AudiencesListRoute />} />
          <Route path="suppressions" element={<SuppressionsRoute />} />
          <Route path=":id" element={<AudienceDetailRoute />} />
          <Route path=":id/import" element={<ImportContactsRoute />} />
          <Route path=":id/fields" element={<FieldsRoute />} />
          <Route path=":id/forms" element={<FormsRoute />} />
          <Route path=":id/segments" element={<SegmentsRoute />} />
          <Route path=":id/segments/new" element={<SegmentEditorRoute />} />
          <Route path=":id/segments/:segmentId" element={<SegmentEditorRoute />} />
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Routes>
      </Suspense>
    </RemoteProvider>
  );
}
