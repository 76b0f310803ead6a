import { MailTemplateRegular } from '@fluentui/react-icons';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { LIST_PAGE_SIZES, ListScreen, PagedListSection, useQueryParams } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { MAX_TEMPLATES_PAGE_SIZE, useCreateTemplate, useTemplates } from '../api/templates';
import { TemplatesTable } from '../components/TemplatesTable';

/** /templates: the templates, searched by name and paged through the query string. */
export function TemplatesListRoute() {
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const params = useQueryParams({ maxLimit: MAX_TEMPLATES_PAGE_SIZE });
  const templates = useTemplates({ page: params.page, limit: params.limit, name: params.name });
  const createTemplate = useCreateTemplate();

  // docs/product.md, Messages and behaviour worth knowing leaves a failed create silent; the member is told instead, since nothing else happens.
  const create = () =>
    createTemplate.mutate(undefined, {
      onSuccess: (id) => navigate(`${basePath}/edit/${id}`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to create template')),
    });

  return (
    <ListScreen
      title="Templates"
      createLabel="Create Template"
      createNeeds={{ role: 'editor', action: 'create templates' }}
      creating={createTemplate.isPending}
      onCreate={create}
    >
      <PagedListSection
        noun="Templates"
        params={params}
        query={templates}
        empty={{ icon: <MailTemplateRegular />, hint: 'Create a template, then design it in the editor.' }}
        pageSizeOptions={LIST_PAGE_SIZES}
      >
        {(templates) => <TemplatesTable templates={templates} />}
      </PagedListSection>
    </ListScreen>
  );
}
