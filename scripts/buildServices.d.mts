export declare function servicesAreStale(): boolean;
export declare function buildServices(): void;
export declare function buildServicesIfStale(log?: (line: string) => void): Promise<void>;
export declare const DIST_CONDITION: 'leadforge-dist';
