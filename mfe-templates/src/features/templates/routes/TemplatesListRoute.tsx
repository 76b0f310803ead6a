import { Button, Spinner, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, MailTemplateRegular } from '@fluentui/react-icons';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { LIST_PAGE_SIZES, NameSearchForm, PagedTableFooter, QueryStateSwitch, useQueryParams } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { useCreateTemplate, useTemplates } from '../api/templates';
import { TemplatesTable } from '../components/TemplatesTable';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
});

/** /templates: the templates, searched by name and paged through the query string. */
export function TemplatesListRoute() {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const { page, limit, name, setParams } = useQueryParams();
  const templates = useTemplates({ page, limit, name });
  const createTemplate = useCreateTemplate();

  // SPEC 8 leaves a failed create silent; the member is told instead, since nothing else happens.
  const create = () =>
    createTemplate.mutate(undefined, {
      onSuccess: (id) => navigate(`${basePath}/edit/${id}`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to create template')),
    });

  return (
    <section className={styles.root} aria-labelledby="templates-title">
      <div className={styles.header}>
        <Title1 as="h1" id="templates-title">
          Templates
        </Title1>
        <Button
          appearance="primary"
          icon={createTemplate.isPending ? <Spinner size="tiny" /> : <AddRegular />}
          disabled={createTemplate.isPending}
          onClick={create}
        >
          Create Template
        </Button>
      </div>

      <NameSearchForm value={name} onSearch={(text) => setParams({ name: text, page: 1 })} />

      <QueryStateSwitch
        query={templates}
        loadingLabel="Loading templates..."
        errorTitle="Failed to load templates"
        isEmpty={(data) => data.items.length === 0}
        empty={{
          icon: <MailTemplateRegular />,
          title: name ? `No templates match “${name}”` : 'No templates yet',
          description: name ? 'Try another name.' : 'Create a template, then design it in the editor.',
        }}
      >
        {(data) => (
          <div>
            <TemplatesTable templates={data.items} />
            <PagedTableFooter
              label="Templates"
              page={page}
              pageSize={limit}
              totalItems={data.meta.totalItems}
              pageSizeOptions={LIST_PAGE_SIZES}
              onPageChange={(next) => setParams({ page: next })}
              onPageSizeChange={(size) => setParams({ limit: size === 'all' ? limit : size, page: 1 })}
            />
          </div>
        )}
      </QueryStateSwitch>
    </section>
  );
}
