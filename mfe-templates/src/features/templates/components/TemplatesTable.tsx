import { Button, MenuItem, Table, TableBody, TableCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentCopyRegular, MailAddRegular } from '@fluentui/react-icons';
import { errorMessage, type TemplateSummary } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { useRemote } from '@mailroom/mf-contract/react';
import {
  ColumnHeaders,
  DATE_TIME_MINUTES_FORMAT,
  DeleteMenuItem,
  DetailLine,
  LastEdited,
  NameWithDetails,
  RenameMenuItem,
  RowActions,
} from '@mailroom/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useCreateCampaignFromTemplate, useReplicateTemplate } from '../api/templates';
import { DeleteTemplateDialog } from './DeleteTemplateDialog';
import { RenameTemplateDialog } from './RenameTemplateDialog';
import { TemplatePreviewImage } from './TemplatePreviewImage';

// A fixed-layout table: the preview and the actions keep their width, the template column takes the rest and wraps.
const useStyles = makeStyles({
  previewCell: { width: '96px' },
  actionsCell: { width: '120px' },
  template: { paddingBlock: tokens.spacingVerticalS },
});

type Pending = { kind: 'rename' | 'delete'; template: TemplateSummary } | null;

export function TemplatesTable({ templates }: { templates: TemplateSummary[] }) {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending>(null);
  const replicate = useReplicateTemplate();
  const createCampaign = useCreateCampaignFromTemplate();
  const busyId = replicate.isPending ? replicate.variables : createCampaign.isPending ? createCampaign.variables : null;
  const editorPath = (id: number) => `${basePath}/edit/${id}`;
  const columns = [{ header: 'Preview', className: styles.previewCell }, 'Template', { header: 'Actions', className: styles.actionsCell }];

  const replicateTemplate = (template: TemplateSummary) =>
    replicate.mutate(template.id, {
      onSuccess: (copyId) => navigate(editorPath(copyId)),
      onError: (error) => notify('error', errorMessage(error, 'Failed to replicate template')),
    });
  const createCampaignFrom = (template: TemplateSummary) =>
    createCampaign.mutate(template.id, {
      onSuccess: (campaignId) => navigate(`${REMOTES.campaigns.basePath}/edit/${campaignId}`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to create campaign')),
    });

  return (
    <>
      <Table aria-label="Templates">
        <ColumnHeaders columns={columns} />
        <TableBody>
          {templates.map((template) => (
            <TableRow key={template.id}>
              <TableCell>
                <TemplatePreviewImage name={template.name} preview={template.preview} />
              </TableCell>
              <TableCell>
                <NameWithDetails name={template.name} to={editorPath(template.id)} className={styles.template}>
                  <LastEdited item={template} format={DATE_TIME_MINUTES_FORMAT} />
                  <DetailLine>ID: {template.id}</DetailLine>
                </NameWithDetails>
              </TableCell>
              <TableCell>
                <RowActions
                  itemName={template.name}
                  needs={{ role: 'editor', action: 'copy, rename or delete templates' }}
                  primary={
                    <Button size="small" aria-label={`Edit ${template.name}`} onClick={() => navigate(editorPath(template.id))}>
                      Edit
                    </Button>
                  }
                  busy={busyId === template.id}
                  disabled={busyId !== null}
                >
                  <MenuItem icon={<MailAddRegular />} onClick={() => createCampaignFrom(template)}>
                    Create campaign
                  </MenuItem>
                  <MenuItem icon={<DocumentCopyRegular />} onClick={() => replicateTemplate(template)}>
                    Replicate
                  </MenuItem>
                  <RenameMenuItem onClick={() => setPending({ kind: 'rename', template })} />
                  <DeleteMenuItem onClick={() => setPending({ kind: 'delete', template })} />
                </RowActions>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {pending?.kind === 'rename' && <RenameTemplateDialog template={pending.template} onClose={() => setPending(null)} />}
      {pending?.kind === 'delete' && <DeleteTemplateDialog template={pending.template} onClose={() => setPending(null)} />}
    </>
  );
}
