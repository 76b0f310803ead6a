import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { Audience } from '@mailroom/api-client';

/** The running-import notice and the last import's failure, above the contacts. */
export function ImportStatusBanners({ audience }: { audience: Audience }) {
  return (
    <>
      {audience.isImporting && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            Contacts are being imported in the background. This page refreshes automatically when the import is done.
          </MessageBarBody>
        </MessageBar>
      )}
      {audience.importErrorMessage && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Import Error</MessageBarTitle>
            {audience.importErrorMessage}
          </MessageBarBody>
        </MessageBar>
      )}
    </>
  );
}
