// The catalogue capability: writing a catalogue, and the sample load's state.
export * from './catalogue-writer';
export * from './sample-load-state';
