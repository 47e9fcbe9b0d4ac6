import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { restoreFirstScreen } from './ipc/firstScreenCache';
import { readFirstScreen } from './ipc/firstScreenRead';
import { createQueryClient } from './ipc/queryClient';
import './styles/theme.css';
import './styles/components.css';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// Before the first render: the last session's terminal (when it had one), then main's answer for the first
// screen, which the preload asked while this script loaded and which usually is in by now. Its data lands
// in microtasks, ahead of React's first render task.
const client = createQueryClient();
const resumed = restoreFirstScreen(client);
readFirstScreen(client);
createRoot(root).render(
  <StrictMode>
    <App client={client} resumed={resumed} />
  </StrictMode>,
);
