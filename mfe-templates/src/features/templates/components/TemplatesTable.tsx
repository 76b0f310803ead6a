import {
  Button,
  Caption1,
  Menu,
  MenuButton,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { DeleteRegular, DocumentCopyRegular, MailAddRegular, MoreHorizontalRegular, RenameRegular } from '@fluentui/react-icons';
import { errorMessage, type TemplateSummary } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { useRemote } from '@mailroom/mf-contract/react';
import { DATE_TIME_MINUTES_FORMAT, RouterLink, formatDateTime } from '@mailroom/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useCreateCampaignFromTemplate, useReplicateTemplate } from '../api/templates';
import { DeleteTemplateDialog } from './DeleteTemplateDialog';
import { RenameTemplateDialog } from './RenameTemplateDialog';
import { TemplatePreviewImage } from './TemplatePreviewImage';

const useStyles = makeStyles({
  previewCell: { width: '96px' },
  actionsCell: { width: '120px' },
  template: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, paddingBlock: tokens.spacingVerticalS },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  meta: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  actions: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
});

/** 'Last edited: on {date} by {email}' (templates use the minutes format, SPEC 9). */
export function lastEdited(template: TemplateSummary): string {
  const on = `Last edited: on ${formatDateTime(template.updatedAt, DATE_TIME_MINUTES_FORMAT)}`;
  return template.updatedByEmail ? `${on} by ${template.updatedByEmail}` : on;
}

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
        <TableHeader>
          <TableRow>
            <TableHeaderCell className={styles.previewCell}>Preview</TableHeaderCell>
            <TableHeaderCell>Template</TableHeaderCell>
            <TableHeaderCell className={styles.actionsCell}>Actions</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {templates.map((template) => (
            <TableRow key={template.id}>
              <TableCell>
                <TemplatePreviewImage name={template.name} preview={template.preview} />
              </TableCell>
              <TableCell>
                <div className={styles.template}>
                  <RouterLink to={editorPath(template.id)} className={styles.name}>
                    {template.name}
                  </RouterLink>
                  <Caption1 className={styles.meta}>{lastEdited(template)}</Caption1>
                  <Caption1 className={styles.meta}>ID: {template.id}</Caption1>
                </div>
              </TableCell>
              <TableCell>
                <span className={styles.actions}>
                  <Button size="small" aria-label={`Edit ${template.name}`} onClick={() => navigate(editorPath(template.id))}>
                    Edit
                  </Button>
                  <Menu>
                    <MenuTrigger disableButtonEnhancement>
                      <MenuButton
                        size="small"
                        appearance="subtle"
                        icon={busyId === template.id ? <Spinner size="extra-tiny" /> : <MoreHorizontalRegular />}
                        disabled={busyId !== null}
                        aria-label={`More actions for ${template.name}`}
                      />
                    </MenuTrigger>
                    <MenuPopover>
                      <MenuList>
                        <MenuItem icon={<MailAddRegular />} onClick={() => createCampaignFrom(template)}>
                          Create campaign
                        </MenuItem>
                        <MenuItem icon={<DocumentCopyRegular />} onClick={() => replicateTemplate(template)}>
                          Replicate
                        </MenuItem>
                        <MenuItem icon={<RenameRegular />} onClick={() => setPending({ kind: 'rename', template })}>
                          Rename
                        </MenuItem>
                        <MenuItem icon={<DeleteRegular />} onClick={() => setPending({ kind: 'delete', template })}>
                          Delete
                        </MenuItem>
                      </MenuList>
                    </MenuPopover>
                  </Menu>
                </span>
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
