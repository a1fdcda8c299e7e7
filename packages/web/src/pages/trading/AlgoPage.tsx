// /algo (docs/PRODUCT.md sections 2, 3 and 4): the algorithm list with the Published/All filter, and the
// editor of one algorithm. The open algorithm lives in the query string (?algorithm=<id> or
// ?algorithm=new, &version=<n> for an older version, &copy=<id> for a copy), so the browser's
// back button and links work and the route table keeps its single /algo entry.
import { Anchor, Loader, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useReadOnly } from '../../app/update-mode';
import { NewAlgorithm, SavedAlgorithm, type AlgoNavigation } from './algo/AlgorithmScreen';
import { AlgoList } from './algo/AlgoList';
import { STRATEGY_WRITER_ROLES, useSubject } from './parts/use-subject';
import { useActingUserId } from './research/use-window-starts';

function positiveInteger(text: string | null): number | undefined {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value > 0 ? value : undefined;
}

export function Component() {
  const [params, setParams] = useSearchParams();
  const userId = useActingUserId();
  const { role } = useSubject();
  const updateMode = useReadOnly();
  const algorithm = params.get('algorithm');
  const version = positiveInteger(params.get('version'));
  const copy = params.get('copy');

  const navigation: AlgoNavigation = {
    open: (algorithmId, openVersion) => setParams(openVersion === undefined ? { algorithm: algorithmId } : { algorithm: algorithmId, version: String(openVersion) }),
    copy: (algorithmId, copyVersion) => setParams({ algorithm: 'new', copy: algorithmId, version: String(copyVersion) }),
  };

  if (userId === undefined) return <Loader size="sm" />;
  if (algorithm === null) {
    return (
      <AlgoList userId={userId} canCreate={!updateMode && role !== undefined && STRATEGY_WRITER_ROLES.includes(role)}
        onOpen={(algorithmId) => navigation.open(algorithmId)} onNew={() => setParams({ algorithm: 'new' })} />
    );
  }
  return (
    <Stack gap="md">
      <Anchor component="button" type="button" size="sm" onClick={() => setParams({})} data-testid="algo-back" style={{ alignSelf: 'flex-start' }}>
        ← All algorithms
      </Anchor>
      {algorithm === 'new' ? (
        <NewAlgorithm key={`new:${copy ?? ''}:${version ?? ''}`} userId={userId} navigation={navigation}
          copyFrom={copy !== null && version !== undefined ? { algorithmId: copy, version } : undefined} />
      ) : (
        <SavedAlgorithm key={algorithm} algorithmId={algorithm} version={version} userId={userId} navigation={navigation} />
      )}
    </Stack>
  );
}
