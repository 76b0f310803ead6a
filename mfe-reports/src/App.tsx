import { lazy, Suspense } from 'react';
import { Spinner } from '@fluentui/react-components';
import type { RemoteProps } from '@mailroom/mf-contract';
import { EXTRA_AREAS, HOME_PATH } from '@mailroom/mf-contract/remotes';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { Navigate, Route, Routes } from 'react-router-dom';

// The report is fetched when first opened: the remote's entry stays a few routes and a spinner.
const CampaignReportRoute = lazy(() =>
  import('./features/campaign-report/routes/CampaignReportRoute').then((module) => ({ default: module.CampaignReportRoute })),
);

const ActivityRoute = lazy(() => import('./features/activity/routes/ActivityRoute').then((module) => ({ default: module.ActivityRoute })));

/**
 * The reports remote: /campaigns/reports/{id}, and the activity log when the shell mounts it at /activity
 * (EXTRA_AREAS). Any other path is unknown to the app: to /audiences (docs/product.md, Routes and screens).
 */
export default function App(props: RemoteProps) {
  const activity = props.basePath === EXTRA_AREAS.activity.basePath;
  return (
    <RemoteProvider value={props}>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <Routes>
          {activity ? <Route index element={<ActivityRoute />} /> : <Route path=":id" element={<CampaignReportRoute />} />}
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Routes>
      </Suspense>
    </RemoteProvider>
  );
}
