import { Title1 } from '@fluentui/react-components';
import type { RemoteProps } from '@mailroom/mf-contract';
import { RemoteProvider } from '@mailroom/mf-contract/react';

export default function App(props: RemoteProps) {
  return (
    <RemoteProvider value={props}>
      <Title1 as="h1">Campaign report</Title1>
    </RemoteProvider>
  );
}
