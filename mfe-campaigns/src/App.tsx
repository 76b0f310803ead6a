import { lazy, Suspense } from 'react';
import type { RemoteProps } from '@mailroom/mf-contract';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { HOME_PATH } from '@mailroom/mf-contract/remotes';
import { Spinner } from '@fluentui/react-components';
import { Navigate, Route, Routes } from 'react-router-dom';

// Every screen is fetched when first opened: the remote's entry stays small, and nothing of it loads
// on the other areas' pages.
const CampaignsListRoute = lazy(() =>
  import('./features/campaigns/routes/CampaignsListRoute').then((module) => ({ default: module.CampaignsListRoute })),
);
const CampaignEditorRoute = lazy(() =>
  import('./features/campaign-editor/routes/CampaignEditorRoute').then((module) => ({ default: module.CampaignEditorRoute })),
);

/** The campaigns remote: its routes relative to where the shell mounts it (/campaigns). */
export default function App(props: RemoteProps) {
  return (
    <RemoteProvider value={props}>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <Routes>
          <Route index element={<CampaignsListRoute />} />
          <Route path="edit/:id" element={<CampaignEditorRoute />} />
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Routes>
      </Suspense>
    </RemoteProvider>
  );
}
