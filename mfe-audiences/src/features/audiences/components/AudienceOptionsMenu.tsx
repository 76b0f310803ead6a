import { Menu, MenuButton, MenuItem, MenuItemLink, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowUploadRegular, DocumentCheckmarkRegular, TextBulletListSquareRegular } from '@fluentui/react-icons';
import { errorMessage, type Audience } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { useRoleAllows } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { useExportConsent, useExportContacts } from '../api/audiences';

/**
 * Import Contacts (or 'Import in Progress...' while one runs), Export Contacts, Export consent record (an addition,
 * issue 25: every consent ledger event of the audience and its addresses), and Fields (an addition: the
 * audience's typed fields, /audiences/{id}/fields). Import is offered only while the audience has no source and no
 * contact added by hand (docs/product.md, the screens and their states): an audience takes one import, into an empty
 * audience.
 */
export function AudienceOptionsMenu({ audience }: { audience: Audience }) {
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const exportContacts = useExportContacts();
  const exportConsent = useExportConsent();
  const importPath = `${basePath}/${audience.id}/import`;
  const fieldsPath = `${basePath}/${audience.id}/fields`;
  // Importing and the exports (addresses) are an editor's (x-mailroom-role): below, those entries are left out of the
  // menu, and the screen's Fields and the forms stay readable.
  const mayEdit = useRoleAllows('editor');

  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <MenuButton>Options</MenuButton>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {audience.isImporting ? (
            <MenuItem disabled>Import in Progress...</MenuItem>
          ) : !mayEdit || audience.source || audience.numberOfContacts > 0 ? null : (
            <MenuItemLink
              icon={<ArrowUploadRegular />}
              href={importPath}
              onClick={(event) => {
                event.preventDefault();
                void navigate(importPath);
              }}
            >
              Import Contacts
            </MenuItemLink>
          )}
          {mayEdit && (
            <MenuItem
              icon={<ArrowDownloadRegular />}
              disabled={exportContacts.isPending}
              onClick={() =>
                exportContacts.mutate(audience.id, {
                  onError: (error) => notify('error', errorMessage(error, 'Failed to export contacts')),
                })
              }
            >
              Export Contacts
            </MenuItem>
          )}
          {mayEdit && (
            <MenuItem
              icon={<DocumentCheckmarkRegular />}
              disabled={exportConsent.isPending}
              onClick={() =>
                exportConsent.mutate(audience.id, {
                  onError: (error) => notify('error', errorMessage(error, 'Failed to export the consent record')),
                })
              }
            >
              Export consent record
            </MenuItem>
          )}
          <MenuItemLink
            icon={<TextBulletListSquareRegular />}
            href={fieldsPath}
            onClick={(event) => {
              event.preventDefault();
              void navigate(fieldsPath);
            }}
          >
            Fields
          </MenuItemLink>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
