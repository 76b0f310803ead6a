import { lazy, Suspense } from 'react';
import { Spinner } from '@fluentui/react-components';
import type { RemoteProps } from '@mailroom/mf-contract';
import { HOME_PATH } from '@mailroom/mf-contract/remotes';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { Navigate, Route, Routes } from 'react-router-dom';

// The report is fetched when first opened: the remote's entry stays a few routes and a spinner.
const CampaignReportRoute = lazy(() =>
  import('./features/campaign-report/routes/CampaignReportRoute').then((module) => ({ default: module.CampaignReportRoute })),
);

/** The reports remote: /campaigns/reports/{id}. Any other path is unknown to the app: to /audiences (SPEC section 2). */
export default function App(props: RemoteProps) {
  return (
    <RemoteProvider value={props}>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <Routes>
          <Route path=":id" element={<CampaignReportRoute />} />
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Routes>
      </Suspense>
    </RemoteProvider>
  );
}
