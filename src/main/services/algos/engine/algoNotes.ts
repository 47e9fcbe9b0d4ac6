/** The algorithms' notes: one stamped, capped format (pure, in src/shared so the renderer reads it too). */
export * from '../../../../shared/algos/algoNotes.js';
