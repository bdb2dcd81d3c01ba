export * from './service.ts';
export * from './perService.ts';
