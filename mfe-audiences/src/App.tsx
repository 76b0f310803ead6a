import type { RemoteProps } from '@mailroom/mf-contract';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AudienceDetailRoute } from './features/audiences/routes/AudienceDetailRoute';
import { AudiencesListRoute } from './features/audiences/routes/AudiencesListRoute';
import { ImportContactsRoute } from './features/import-contacts/routes/ImportContactsRoute';

/** The audiences remote: its routes relative to where the shell mounts it (/audiences). */
export default function App(props: RemoteProps) {
  return (
    <RemoteProvider value={props}>
      <Routes>
        <Route index element={<AudiencesListRoute />} />
        <Route path=":id" element={<AudienceDetailRoute />} />
        <Route path=":id/import" element={<ImportContactsRoute />} />
        <Route path="*" element={<Navigate to={props.basePath} replace />} />
      </Routes>
    </RemoteProvider>
  );
}
