import { Button } from '@fluentui/react-components';
import { PeopleRegular, ShieldRegular } from '@fluentui/react-icons';
import { LIST_PAGE_SIZES, ListScreen, PagedListSection, useQueryParams } from '@mailroom/ui';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAudiences } from '../api/audiences';
import { AudiencesTable } from '../components/AudiencesTable';

// Fetched when first opened: Fluent's Dialog and the name form are not needed to show the list,
// and the list is the first view after signing in (tests/bench/bundle.mjs).
const CreateAudienceDialog = lazy(() =>
  import('../components/CreateAudienceDialog').then((module) => ({ default: module.CreateAudienceDialog })),
);

/** /audiences: the audiences, searched by name and paged through the query string. */
export function AudiencesListRoute() {
  const params = useQueryParams();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const audiences = useAudiences({ page: params.page, limit: params.limit, name: params.name });

  return (
    <ListScreen
      title="Audiences"
      createLabel="Create Audience"
      createNeeds={{ role: 'editor', action: 'create audiences' }}
      onCreate={() => setCreating(true)}
      actions={
        <Button icon={<ShieldRegular />} onClick={() => navigate('suppressions')}>
          Suppressions
        </Button>
      }
    >
      <PagedListSection
        noun="Audiences"
        params={params}
        query={audiences}
        empty={{ icon: <PeopleRegular />, hint: 'Create an audience, then import its contacts.' }}
        pageSizeOptions={LIST_PAGE_SIZES}
      >
        {(audiences) => <AudiencesTable audiences={audiences} />}
      </PagedListSection>

      <Suspense fallback={null}>{creating && <CreateAudienceDialog onClose={() => setCreating(false)} />}</Suspense>
    </ListScreen>
  );
}
