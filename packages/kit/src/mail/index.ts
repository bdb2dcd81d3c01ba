export * from './letters.ts';
export * from './mailConfig.ts';
export * from './mailTransport.ts';
export * from './mailOutbox.ts';
export * from './mailRecipients.ts';
