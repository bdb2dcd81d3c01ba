export * from './service.ts';
export * from './perService.ts';
export * from './defineService.ts';
export * from './parkedWorkRoutes.ts';
