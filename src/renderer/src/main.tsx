import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { restoreFirstScreen } from './ipc/firstScreenCache';
import { arrivedFirstScreen, putFirstScreen, readFirstScreen } from './ipc/firstScreenRead';
import { createQueryClient } from './ipc/queryClient';
import './styles/theme.css';
import './styles/components.css';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// Before the first render, the first screen's data: main's answer, which the preload asked for while this
// script loaded and which has usually arrived by now; otherwise the last session's terminal (when it had
// one) until that answer lands.
const client = createQueryClient();
const arrived = arrivedFirstScreen();
let resumed = false;
if (arrived?.ok) {
  putFirstScreen(client, arrived.value);
} else {
  resumed = restoreFirstScreen(client);
  readFirstScreen(client, arrived ? Promise.resolve(arrived) : undefined);
}
createRoot(root).render(
  <StrictMode>
    <App client={client} resumed={resumed} />
  </StrictMode>,
);
