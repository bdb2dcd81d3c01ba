export declare const COMPILED_NODE_OPTIONS: string[];
export declare const COMPILED_ENTRY: string;
export declare function servicesAreStale(): boolean;
export declare function buildServices(): void;
export declare function buildServicesIfStale(log?: (line: string) => void): Promise<void>;
