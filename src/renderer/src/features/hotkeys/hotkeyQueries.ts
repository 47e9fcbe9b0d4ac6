/** The trade hotkeys as main stores them (settings:getHotkeys), read by Settings, the shortcut sheet and the key handler. */
import { useQuery } from '@tanstack/react-query';
import { perps, unwrap } from '../../ipc/client';

export const hotkeysKey = ['settings', 'hotkeys'] as const;

export const useTradeHotkeys = () => useQuery({ queryKey: hotkeysKey, queryFn: () => unwrap(perps().settings.getHotkeys()) });
