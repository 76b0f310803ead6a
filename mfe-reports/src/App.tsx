import { lazy, Suspense } from 'react';
import { Spinner } from '@fluentui/react-components';
import type { RemoteProps } from '@mailroom/mf-contract';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { Navigate, Route, Routes } from 'react-router-dom';

// The report is fetched when first opened: the remote's entry stays a few routes and a spinner.
const CampaignReportRoute = lazy(() =>
  import('./features/campaign-report/routes/CampaignReportRoute').then((module) => ({ default: module.CampaignReportRoute })),
);

/** The reports remote: /campaigns/reports/{id}. A report without an id has nothing to show: back to the campaigns. */
export default function App(props: RemoteProps) {
  return (
    <RemoteProvider value={props}>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <Routes>
          <Route path=":id" element={<CampaignReportRoute />} />
          <Route path="*" element={<Navigate to={REMOTES.campaigns.basePath} replace />} />
        </Routes>
      </Suspense>
    </RemoteProvider>
  );
}
