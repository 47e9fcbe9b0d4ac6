export { AlertStore, ALERTS_FILE, alertView, type StoredAlert } from './alertStore.js';
export { appendAlertLog, readAlertLog, alertLogFile, ALERTS_LOG_FILE } from './alertLog.js';
export { AlertEvaluator, OTHERS_LEAD_MS, type MarketObservation, type PositionObservation } from './alertEvaluator.js';
export { startAlertFeed, type AlertFeed } from './alertFeed.js';
export { addAlert, alertStoreOf, listAlerts, listAlertsChecked, moveAlertLevel, removeAlert } from './alertOps.js';
export { startPositionPoll } from './alertPositionPoll.js';
